package jobs

// SchedulerTicksKey is the Redis hash in which the scheduler records, per entry of its table, the
// Unix time of the last tick it enqueued. The API reads it on every scrape of /metrics
// (perfilseguro_scheduler_last_tick_timestamp_seconds), so stopped ticks are seen without the
// scheduler serving metrics of its own.
const SchedulerTicksKey = "scheduler:last-tick"
