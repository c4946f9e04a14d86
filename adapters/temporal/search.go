package temporal

import (
	"slices"

	sdk "go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// The search attributes a run keeps up to date when Input.SearchAttributes
// is set, so that runs waiting on a person, or that used a tool, can be
// listed (Temporal's visibility queries: `HooksWaiting = true`,
// `HooksTools = "deploy"`). Register them on the namespace first (Bool
// and KeywordList): a workflow that upserts an unknown one fails its
// task.
var (
	SearchWaiting = sdk.NewSearchAttributeKeyBool("HooksWaiting")
	SearchTools   = sdk.NewSearchAttributeKeyKeywordList("HooksTools")
)

// searchWaiting records whether the run waits on a person.
func (f *flow) searchWaiting(waiting bool) {
	if !f.in.SearchAttributes {
		return
	}
	if err := workflow.UpsertTypedSearchAttributes(f.ctx, SearchWaiting.ValueSet(waiting)); err != nil {
		workflow.GetLogger(f.ctx).Warn("search attribute not updated", "name", SearchWaiting.GetName(), "error", err)
	}
}

// searchTool records that the run used the tool name.
func (f *flow) searchTool(name string) {
	if !f.in.SearchAttributes || slices.Contains(f.tools, name) {
		return
	}
	f.tools = append(f.tools, name)
	if err := workflow.UpsertTypedSearchAttributes(f.ctx, SearchTools.ValueSet(slices.Clone(f.tools))); err != nil {
		workflow.GetLogger(f.ctx).Warn("search attribute not updated", "name", SearchTools.GetName(), "error", err)
	}
}
