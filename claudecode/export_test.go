package claudecode

import "github.com/rienda/hooks"

// WaitAsync waits until the async handlers of the sets hs belong to have
// all ended, and their output is kept for the next model request: a test
// knows then what the next request gets, without sleeping.
func WaitAsync(hs []hooks.Hook) {
	for _, h := range hs {
		h.(*hook).set.asyncs.Range(func(_, v any) bool {
			v.(*background).wg.Wait()
			return true
		})
	}
}
