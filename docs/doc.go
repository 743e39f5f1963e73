// Package docs holds the project's documents (design.md, operating.md) and
// the tests that keep them and the code's references to them in step. It
// has no code.
package docs
