package tomledit

func (e *editor) replace(start, end int, text string) { e.patches.Replace(start, end, text) }
func (e *editor) del(start, end int)                  { e.patches.Delete(start, end) }
func (e *editor) insert(at int, text string)          { e.patches.Insert(at, text) }
