//go:build kepdefaults_tagged

package buildtags

type Tagged struct {
	// +default={"name": "tagged"}
	Entry SubLevel `json:"entry"` // want `^error: Tagged.Entry: \+default=\{"name":"tagged"\} on a non-pointer struct: only \{\} is allowed`
}
