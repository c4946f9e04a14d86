package hooks

// Agent is an agent file: its YAML front matter and the prompt after it.
// Hooks lists the hooks the agent declares, in execution order.
type Agent struct {
	Name        string   `yaml:"name"`
	Description string   `yaml:"description"`
	Model       string   `yaml:"model"`
	Tools       []string `yaml:"tools"`
	Hooks       []string `yaml:"hooks"`
	Prompt      string   `yaml:"-"` // the text after the front matter
}
