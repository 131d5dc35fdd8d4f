// Package assets embeds the files the app ships with: the demo input
// scripts (and, with the app, its sounds). It does not import Ebitengine,
// so headless tools and tests can use the scripts too.
package assets
