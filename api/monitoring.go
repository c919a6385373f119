package api

import (
	"net/http"

	"github.com/hibiken/asynq"
	"github.com/hibiken/asynqmon"
)

// monitoringPath is where operators watch the queues (asynqmon).
const monitoringPath = "/admin/monitoring"

// mountMonitoring serves asynqmon. Until the admin session exists it is available only outside production.
func (s *Server) mountMonitoring(redisOpt asynq.RedisConnOpt) {
	if redisOpt == nil {
		return
	}
	mon := asynqmon.New(asynqmon.Options{RootPath: monitoringPath, RedisConnOpt: redisOpt})
	guarded := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.cfg.Production() {
			writeError(w, r, httpError(http.StatusNotFound, "Recurso no encontrado."))
			return
		}
		mon.ServeHTTP(w, r)
	})
	s.f.Mux.Handle(monitoringPath+"/", guarded)
	s.f.Mux.Handle(monitoringPath, http.RedirectHandler(monitoringPath+"/", http.StatusMovedPermanently))
}
