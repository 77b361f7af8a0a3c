// Package v1 is KEP-1929 "Non-pointer structs".
// +groupName=nonpointerstructs.kep.example.com
package v1
