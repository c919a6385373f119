package api

// mapped is each item of list as view shows it, in order; an empty list gives an empty slice
// (JSON []), never nil.
func mapped[T, J any](list []T, view func(T) J) []J {
	out := make([]J, len(list))
	for i, v := range list {
		out[i] = view(v)
	}
	return out
}
