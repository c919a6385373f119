package worker

// PassesDeps holds what the passes jobs need (filled in by cmd/perfilseguro).
type PassesDeps struct{}

func (w *Worker) routesPasses() {}
