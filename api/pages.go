package api

// pageOf turns the size+1 rows a keyset query read into one page of answers and whether more
// rows follow (the extra row is read only to know that).
func pageOf[T, U any](rows []T, size int, conv func(T) U) (page []U, more bool) {
	page = make([]U, 0, min(len(rows), size))
	for i, row := range rows {
		if i == size {
			break
		}
		page = append(page, conv(row))
	}
	return page, len(rows) > size
}
