// Package v1 is KEP-1929 "String Maps".
// +groupName=stringmaps.kep.example.com
package v1
