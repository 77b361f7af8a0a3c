// Package kal has fields where kube-api-linter's advice and KEP-1929's meet.
//
// Fields are optional unless marked: the default-on-required rule has its own package.
// +kubebuilder:validation:Optional
package kal

// Spec is a spec.
type Spec struct {
	// pointer is KEP-1929's "Struct pointers": a pointer may have any default.
	// +optional
	// +default={"name": "pointer-name"}
	Pointer *SubLevel `json:"pointer,omitempty"`

	// zeroStruct is a non-pointer struct with a default other than {}, tagged omitzero.
	// +optional
	// +default={"name": "entry"}
	ZeroStruct SubLevel `json:"zeroStruct,omitzero"`

	// empty is a non-pointer struct with omitempty.
	// +optional
	Empty SubLevel `json:"empty,omitempty"`

	// emptyDefault is KEP-1929's "Non-pointer structs": default {} without omitzero.
	// +optional
	// +default={}
	EmptyDefault SubLevel `json:"emptyDefault"`

	// name has a default and no omitempty.
	// +optional
	// +default="default-name"
	Name string `json:"name"`

	// count has no omitempty: KEP-1929 gives it the implicit default 0.
	// +optional
	Count int32 `json:"count"`

	// engine is optional and its type refuses the empty object.
	// +optional
	// +default={"fuel": "diesel"}
	Engine Engine `json:"engine,omitzero"`

	// enginePointer is the same as a pointer.
	// +optional
	// +default={"fuel": "diesel"}
	EnginePointer *Engine `json:"enginePointer,omitempty"`

	// fueled is engine with both linters' advice taken: KAL's shape
	// (non-pointer, omitzero), the default on the struct's own field.
	// +optional
	Fueled FueledEngine `json:"fueled,omitzero"`

	// mode is required and has a default.
	// +required
	// +default="TCP"
	Mode string `json:"mode,omitempty"`
}

// SubLevel is a sub-level.
type SubLevel struct {
	// name is a name.
	// +optional
	Name string `json:"name,omitempty"`
}

// Engine is an engine.
// +kubebuilder:validation:MinProperties=1
type Engine struct {
	// fuel is a fuel.
	// +optional
	// +kubebuilder:validation:MinLength=1
	Fuel string `json:"fuel,omitempty"`
}

// FueledEngine is an engine whose fuel has a default.
// +kubebuilder:validation:MinProperties=1
type FueledEngine struct {
	// fuel is a fuel.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +default="diesel"
	Fuel string `json:"fuel,omitempty"`
}
