package api

// OriginCacheLen is how many browser origins the server remembers (tests of its bound).
func (s *Server) OriginCacheLen() int { return s.origins.len() }
