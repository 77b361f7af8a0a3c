// Package v1 holds the Go shapes on which the defaults generator once
// wrote code that panicked, did not compile, or disagreed with the
// apiserver: an embedded pointer struct whose fields have defaults,
// RawExtension and apiextensions JSON (pointer and not), a metav1.Time, an
// omitzero struct with its own IsZero, strings with control and other
// rare characters, and package-level identifiers named like the generated
// file's imports (runtime, fmt, context, reflect, time) and like its own
// functions (setDefaults_<Type>, defaultsPtr). Its kind's
// DeepCopyObject is written by hand: controller-gen's object generator
// imports runtime whatever the package declares.
// +groupName=shapes.example.com
package v1
