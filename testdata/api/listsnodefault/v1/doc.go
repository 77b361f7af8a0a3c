// Package v1 is KEP-1929 "Lists without default".
// +groupName=listsnodefault.kep.example.com
package v1
