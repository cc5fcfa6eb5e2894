package main

import (
	_ "embed" // the help texts
	"io"
	"strings"

	"github.com/urfave/cli/v3"
)

// The long help of each command (--help) is a text file of its own in
// help/, the command's name: prose, kept out of the code that parses flags.
//
// Each file is embedded as a string of its own, not read out of an
// embed.FS, and is not read at all until its help is printed: an
// embedded string is the program's read-only data, paged in when first
// read. Reading every file as each command was built (even a string's
// last byte, to trim its newline) cost every command, 'mcpsync version'
// alike, about 2 ms of its 24 (a page fault for each file). So help
// returns the text as it is, final newline and all, and the help printer
// trims it (init). TestHelpFiles holds this list to the folder.
var helpTexts = map[string]*string{
	"add":            &helpAdd,
	"apply":          &helpApply,
	"approve":        &helpApprove,
	"clients":        &helpClients,
	"convert":        &helpConvert,
	"diff":           &helpDiff,
	"disable":        &helpDisable,
	"doctor":         &helpDoctor,
	"enable":         &helpEnable,
	"export":         &helpExport,
	"import":         &helpImport,
	"list":           &helpList,
	"mcpsync":        &helpMcpsync,
	"plan":           &helpPlan,
	"plan-export":    &helpPlanExport,
	"plan-sync":      &helpPlanSync,
	"policy":         &helpPolicy,
	"policy-check":   &helpPolicyCheck,
	"policy-render":  &helpPolicyRender,
	"probe":          &helpProbe,
	"pull":           &helpPull,
	"registry":       &helpRegistry,
	"registry-build": &helpRegistryBuild,
	"registry-serve": &helpRegistryServe,
	"remove":         &helpRemove,
	"resolve":        &helpResolve,
	"restore":        &helpRestore,
	"serve":          &helpServe,
	"show":           &helpShow,
	"source":         &helpSource,
	"source-add":     &helpSourceAdd,
	"source-list":    &helpSourceList,
	"source-remove":  &helpSourceRemove,
	"status":         &helpStatus,
	"sync":           &helpSync,
	"version":        &helpVersion,
	"watch":          &helpWatch,
}

//go:embed help/add.txt
var helpAdd string

//go:embed help/apply.txt
var helpApply string

//go:embed help/approve.txt
var helpApprove string

//go:embed help/clients.txt
var helpClients string

//go:embed help/convert.txt
var helpConvert string

//go:embed help/diff.txt
var helpDiff string

//go:embed help/disable.txt
var helpDisable string

//go:embed help/doctor.txt
var helpDoctor string

//go:embed help/enable.txt
var helpEnable string

//go:embed help/export.txt
var helpExport string

//go:embed help/import.txt
var helpImport string

//go:embed help/list.txt
var helpList string

//go:embed help/mcpsync.txt
var helpMcpsync string

//go:embed help/plan.txt
var helpPlan string

//go:embed help/plan-export.txt
var helpPlanExport string

//go:embed help/plan-sync.txt
var helpPlanSync string

//go:embed help/policy.txt
var helpPolicy string

//go:embed help/policy-check.txt
var helpPolicyCheck string

//go:embed help/policy-render.txt
var helpPolicyRender string

//go:embed help/probe.txt
var helpProbe string

//go:embed help/pull.txt
var helpPull string

//go:embed help/registry.txt
var helpRegistry string

//go:embed help/registry-build.txt
var helpRegistryBuild string

//go:embed help/registry-serve.txt
var helpRegistryServe string

//go:embed help/remove.txt
var helpRemove string

//go:embed help/resolve.txt
var helpResolve string

//go:embed help/restore.txt
var helpRestore string

//go:embed help/serve.txt
var helpServe string

//go:embed help/show.txt
var helpShow string

//go:embed help/source.txt
var helpSource string

//go:embed help/source-add.txt
var helpSourceAdd string

//go:embed help/source-list.txt
var helpSourceList string

//go:embed help/source-remove.txt
var helpSourceRemove string

//go:embed help/status.txt
var helpStatus string

//go:embed help/sync.txt
var helpSync string

//go:embed help/version.txt
var helpVersion string

//go:embed help/watch.txt
var helpWatch string

// help returns the text of help/NAME.txt, with the newline that ends it.
// A missing file is a bug that TestHelpFiles catches; it reads as an empty
// help.
func help(name string) string {
	text, ok := helpTexts[name]
	if !ok {
		return ""
	}
	return *text
}

// init has urfave/cli's help printer trim the final newline of the
// command's long help (a template prints only the Description of the
// command whose help it is), where the text is first read: see helpTexts.
func init() {
	print := cli.HelpPrinterCustom
	cli.HelpPrinterCustom = func(w io.Writer, templ string, data any, funcs map[string]any) {
		if c, ok := data.(*cli.Command); ok {
			c.Description = strings.TrimSuffix(c.Description, "\n")
		}
		print(w, templ, data, funcs)
	}
}
