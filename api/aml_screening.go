package api

import (
	"context"

	"github.com/perfilseguro/perfilseguro/jobs"
)

// queueOperationScreening queues the screening of a recorded operation's people (issue 53 item
// 3). Postgres is the truth: if Redis is down the operation stays recorded and the scheduler's
// aml sweep queues its screening within minutes.
func (s *Server) queueOperationScreening(ctx context.Context, operationID string) {
	task, err := jobs.NewAMLScreenOperationTask(operationID)
	if err := jobs.Enqueue(ctx, s.queue, task, err); err != nil {
		s.logger.WarnContext(ctx, "enqueue aml screening", "operation_id", operationID, "error", err)
	}
}
