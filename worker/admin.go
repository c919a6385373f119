package worker

func (w *Worker) routesAdmin() {}
