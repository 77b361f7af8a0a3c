package v1

// Hub marks v1 as the version that the others convert to and from.
func (*Widget) Hub() {}
