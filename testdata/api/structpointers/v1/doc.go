// Package v1 is KEP-1929 "Struct pointers".
// +groupName=structpointers.kep.example.com
package v1
