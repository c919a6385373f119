package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/hibiken/asynq"
)

// purgeStates are the task states that still hold a payload in Redis. Completed tasks keep theirs
// for their retention (15 minutes for a code delivery, up to a day for others: issue 54, item 24).
var purgeStates = []string{"pending", "scheduled", "retry", "archived", "completed"}

// purgeQueuedJobsOf deletes every queued, scheduled, retrying, archived or completed job whose
// payload carries one of a deleted person's contacts (the code deliveries name their
// destination), so nothing is sent to them and Redis keeps none of their data. A job running at
// that moment cannot be deleted; it finds no code or token to send. It returns how many it deleted.
func (s *Server) purgeQueuedJobsOf(ctx context.Context, contacts ...string) (int, error) {
	if s.asynqRedis == nil {
		return 0, nil
	}
	var needles [][]byte
	for _, c := range contacts {
		if c == "" {
			continue
		}
		quoted, _ := json.Marshal(c) // as it appears inside a JSON payload
		needles = append(needles, quoted)
	}
	if len(needles) == 0 {
		return 0, nil
	}
	insp := asynq.NewInspector(s.asynqRedis)
	defer insp.Close()
	queues, err := insp.Queues()
	if err != nil {
		return 0, fmt.Errorf("purge jobs: %w", err)
	}
	deleted := 0
	for _, q := range queues {
		for _, state := range purgeStates {
			// Read every page first, then delete: deleting while paging would shift the pages.
			var doomed []string
			for page := 1; ; page++ {
				tasks, err := listTasks(insp, q, state, page)
				if err != nil {
					return deleted, fmt.Errorf("purge jobs: %s %s: %w", q, state, err)
				}
				for _, t := range tasks {
					if carriesAny(t.Payload, needles) {
						doomed = append(doomed, t.ID)
					}
				}
				if len(tasks) < purgePage {
					break
				}
			}
			for _, id := range doomed {
				if err := insp.DeleteTask(q, id); err == nil {
					deleted++
				}
			}
		}
	}
	return deleted, nil
}

func carriesAny(payload []byte, needles [][]byte) bool {
	for _, n := range needles {
		if bytes.Contains(payload, n) {
			return true
		}
	}
	return false
}

const purgePage = 500

func listTasks(insp *asynq.Inspector, queue, state string, page int) ([]*asynq.TaskInfo, error) {
	opts := []asynq.ListOption{asynq.PageSize(purgePage), asynq.Page(page)}
	switch state {
	case "pending":
		return insp.ListPendingTasks(queue, opts...)
	case "scheduled":
		return insp.ListScheduledTasks(queue, opts...)
	case "retry":
		return insp.ListRetryTasks(queue, opts...)
	case "completed":
		return insp.ListCompletedTasks(queue, opts...)
	default:
		return insp.ListArchivedTasks(queue, opts...)
	}
}
