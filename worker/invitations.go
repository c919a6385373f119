package worker

func (w *Worker) routesInvitations() {}
