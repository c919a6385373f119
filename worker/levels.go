package worker

// LevelsDeps holds what the levels jobs need (filled in by cmd/perfilseguro).
type LevelsDeps struct{}

func (w *Worker) routesLevels() {}
