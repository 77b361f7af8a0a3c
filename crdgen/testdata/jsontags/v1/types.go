// Package v1 holds json tags that controller-gen reads in each of its
// ways, for TestControllerGenReading.
// +groupName=jsontags.example.com
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

type Tags struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec TagsSpec `json:"spec,omitempty"`
}

type TagsSpec struct {
	Plain    string `json:"plain,omitempty"`
	Quote    string `json:"odd\"name,omitempty"`
	Space    string `json:"with space,omitempty"`
	Unicode  string `json:"emoji😀,omitempty"`
	Dash     string `json:"-,"`
	Skipped  string `json:"-"`
	hidden   string `json:"hidden,omitempty"`
	Settings Inner  `json:",inline"`
	Named    Second `json:"named,inline"`
	Third    `json:"third"`
	Fourth   `json:""`
}

type Inner struct {
	X string `json:"x,omitempty"`
}

type Second struct {
	Y string `json:"y,omitempty"`
}

type Third struct {
	Z string `json:"z,omitempty"`
}

type Fourth struct {
	W string `json:"w,omitempty"`
}
