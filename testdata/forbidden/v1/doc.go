// Package v1 holds KEP-1929's forbidden examples and every other error the
// generator reports. Generation must fail and write nothing.
// +groupName=forbidden.example.com
package v1
