package api

// AdminDeps holds what the admin area needs (filled in by cmd/perfilseguro).
type AdminDeps struct{}

func (s *Server) mountAdmin(d AdminDeps) {}
