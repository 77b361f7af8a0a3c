// Package v1 embeds upstream types (PodTemplateSpec), whose implicit
// defaults come from k8s.io/api.
// +kubebuilder:object:generate=true
// +groupName=workload.example.com
package v1
