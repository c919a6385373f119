package api

// mountPartners mounts the partner widget API with CORS (widget issue).
func (s *Server) mountPartners() {}
