// Command geminicli runs Gemini CLI hook scripts, unchanged, around a
// Gemini model called through the official SDK (google.golang.org/genai):
// a BeforeTool script refuses rm -rf with the reason the model reads, and
// an AfterModel script redacts an access key from the reply. The model is
// a scripted Gemini API server on the loopback (httptest): no network, no
// keys. The program prints what each step did. It needs python3.
//
//	go run ./examples/geminicli
package main

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"

	sdk "google.golang.org/genai"

	"github.com/rienda/hooks"
	hooksgenai "github.com/rienda/hooks/adapters/genai"
	"github.com/rienda/hooks/geminicli"
)

func main() {
	if err := run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "geminicli:", err)
		os.Exit(1)
	}
}

// out is where the story goes (a test reads it).
var out io.Writer = os.Stdout

// project is a Gemini CLI project's hook settings and scripts.
//
//go:embed all:.gemini
var project embed.FS

// replies are the scripted model's answers, in turn: two function calls,
// then a reply that leaks a key.
var replies = []string{
	`{"candidates":[{"content":{"role":"model","parts":[` +
		`{"functionCall":{"name":"read","args":{"path":"config.txt"}}},` +
		`{"functionCall":{"name":"shell","args":{"command":"rm -rf build"}}}]},"finishReason":"STOP"}]}`,
	`{"candidates":[{"content":{"role":"model","parts":[{"text":"The config uses key AKIAABCDEFGHIJKLMNOP; build left alone."}]},"finishReason":"STOP"}]}`,
}

func run(ctx context.Context) error {
	dir, err := os.MkdirTemp("", "genai-geminicli-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := os.CopyFS(dir, project); err != nil {
		return err
	}
	settings, err := os.ReadFile(filepath.Join(dir, ".gemini", "settings.json"))
	if err != nil {
		return err
	}
	hs, err := geminicli.Hooks(settings, geminicli.ToolNames(map[string]string{"read": "read_file", "shell": "run_shell_command"}))
	if err != nil {
		return err
	}
	chain, err := hooks.NewChain(hs, hooks.WithDiagnostics(func(d hooks.Diagnostic) { fmt.Fprintln(out, "  diagnostic:", d) }))
	if err != nil {
		return err
	}

	srv := scriptedGemini()
	defer srv.Close()
	client, err := sdk.NewClient(ctx, &sdk.ClientConfig{APIKey: "demo", Backend: sdk.BackendGeminiAPI,
		HTTPOptions: sdk.HTTPOptions{BaseURL: srv.URL}, HTTPClient: srv.Client()})
	if err != nil {
		return err
	}

	run, err := chain.Start(ctx, hooks.Host{Workdir: dir, Session: hooks.Session{ID: "demo"}}, hooks.RunStart{Input: "check the config"})
	if err != nil {
		return err
	}
	loop := hooksgenai.Loop{Models: client.Models, Tools: map[string]hooksgenai.Tool{"read": tool("read"), "shell": tool("shell")}}
	res, err := loop.Run(ctx, run, params())
	run.End(ctx, hooks.RunEnd{Output: res.Output, Err: err})
	if err != nil {
		return err
	}
	for _, c := range res.Contents {
		for _, p := range c.Parts {
			if r := p.FunctionResponse; r != nil {
				fmt.Fprintf(out, "model reads for %s: %v\n", r.Name, r.Response)
			}
		}
	}
	fmt.Fprintf(out, "final answer: %s\n", res.Output)
	return nil
}

// params is the conversation: one question, two functions offered.
func params() hooksgenai.Params {
	decl := func(name, arg string) *sdk.FunctionDeclaration {
		return &sdk.FunctionDeclaration{Name: name, ParametersJsonSchema: map[string]any{"type": "object",
			"properties": map[string]any{arg: map[string]any{"type": "string"}}, "required": []string{arg}}}
	}
	return hooksgenai.Params{Model: "gemini-2.5-flash",
		Contents: []*sdk.Content{sdk.NewContentFromText("Check the config, then clean the build.", sdk.RoleUser)},
		Config: &sdk.GenerateContentConfig{Tools: []*sdk.Tool{{FunctionDeclarations: []*sdk.FunctionDeclaration{
			decl("read", "path"), decl("shell", "command")}}}}}
}

// tool is a host tool that says it ran.
func tool(name string) hooksgenai.Tool {
	return func(_ context.Context, args json.RawMessage) (hooks.ToolResult, error) {
		fmt.Fprintf(out, "%s runs with %s\n", name, args)
		return hooks.ToolResult{Text: "key = from the vault"}, nil
	}
}

// scriptedGemini is a Gemini API server answering with replies in turn.
func scriptedGemini() *httptest.Server {
	var n atomic.Int64
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		i := int(n.Add(1) - 1)
		if i >= len(replies) {
			http.Error(w, `{"error":{"code":500,"message":"no more replies","status":"INTERNAL"}}`, http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, replies[i])
	}))
}
