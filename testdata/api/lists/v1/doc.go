// Package v1 is KEP-1929 "Lists".
// +groupName=lists.kep.example.com
package v1
