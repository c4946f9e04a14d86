package prebuilt

// optBool reads a setting that is true, false or absent (nil).
func (s *settings) optBool(key string) *bool {
	if _, ok := s.get(key); !ok {
		return nil
	}
	b := s.boolean(key)
	return &b
}
