package api

// LevelsDeps holds what the levels area needs (filled in by cmd/perfilseguro).
type LevelsDeps struct{}

func (s *Server) mountLevels(d LevelsDeps) {}
