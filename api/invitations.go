package api

func (s *Server) mountInvitations() {}
