package api

// PassesDeps holds what the passes area needs (filled in by cmd/perfilseguro).
type PassesDeps struct{}

func (s *Server) mountPasses(d PassesDeps) {}
