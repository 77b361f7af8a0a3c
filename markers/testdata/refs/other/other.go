// Package other is imported by package refs.
package other

const Name = "from-other"

type Port int32

const DefaultPort Port = 8080
