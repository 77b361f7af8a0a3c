//go:build !kepdefaults_tagged

package buildtags

type Untagged struct {
	// +default={"name": "untagged"}
	Entry SubLevel `json:"entry"` // want `^error: Untagged.Entry: \+default=\{"name":"untagged"\} on a non-pointer struct: only \{\} is allowed`
}
