package worker

// Exported for the worker_test package.
var (
	ErrClaimHeld    = errClaimHeld
	RetryDelay      = retryDelay
	CountsAsFailure = countsAsFailure
)
