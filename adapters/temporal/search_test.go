package temporal_test

import (
	"context"
	"testing"

	"github.com/rienda/hooks"
	durable "github.com/rienda/hooks/adapters/temporal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/sdk/converter"
)

// searchAttribute reads one of a workflow's search attributes.
func searchAttribute(t *testing.T, id, name string, v any) bool {
	t.Helper()
	d, err := server.GetDefaultClient().DescribeWorkflowExecution(context.Background(), id, "")
	require.NoError(t, err)
	p, ok := d.GetWorkflowExecutionInfo().GetSearchAttributes().GetIndexedFields()[name]
	if !ok {
		return false
	}
	require.NoError(t, converter.GetDefaultDataConverter().FromPayload(p, v))
	return true
}

// A run with SearchAttributes says, where Temporal's visibility can list
// it, that it waits on a person and which tools it used.
func TestSearchAttributesShowARunWaitingOnAPerson(t *testing.T) {
	_, err := server.GetDefaultClient().OperatorService().AddSearchAttributes(context.Background(), &operatorservice.AddSearchAttributesRequest{
		Namespace: server.GetDefaultNamespace(),
		SearchAttributes: map[string]enumspb.IndexedValueType{
			durable.SearchWaiting.GetName(): enumspb.INDEXED_VALUE_TYPE_BOOL,
			durable.SearchTools.GetName():   enumspb.INDEXED_VALUE_TYPE_KEYWORD_LIST,
		}})
	require.NoError(t, err)
	var rec record
	asked := make(chan durable.Question, 1)
	agent := newAgent(t, &rec)
	chain, err := hooks.NewChain([]hooks.Hook{goApproval})
	require.NoError(t, err)
	agent.Chain = chain
	agent.Ask = func(ctx context.Context, q durable.Question) { asked <- q }
	startWorker(t, "search", agent)
	run := startRun(t, "search", "search", durable.Input{Input: "now tidy up", SearchAttributes: true})
	q := <-asked
	waitForEvents(t, "search", waitingForSignal)

	var waiting bool
	require.True(t, searchAttribute(t, "search", "HooksWaiting", &waiting))
	assert.True(t, waiting, "the run waits on a person")
	var tools []string
	require.True(t, searchAttribute(t, "search", "HooksTools", &tools))
	assert.Equal(t, []string{"delete"}, tools)

	require.NoError(t, durable.SendAnswer(context.Background(), server.GetDefaultClient(), "search", durable.Answer{QuestionID: q.ID, Approved: true}))
	wait(t, run)
	require.True(t, searchAttribute(t, "search", "HooksWaiting", &waiting))
	assert.False(t, waiting, "answered: no longer waiting")
	require.True(t, searchAttribute(t, "search", "HooksTools", &tools))
	assert.ElementsMatch(t, []string{"delete", "read"}, tools)
}
