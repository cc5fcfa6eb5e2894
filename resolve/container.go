package resolve

import (
	"context"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/lazyre"
)

// A repository that ships only a Dockerfile says nothing of the image's
// name: a container is only run when the README names a published image
// (docker run IMAGE, docker pull IMAGE, or a registry path such as
// ghcr.io/OWNER/REPO), never one the README builds itself (docker build
// -t NAME .), which exists on nobody else's machine. Otherwise the chain
// fails and says how to build it.

// dockerValueFlags are docker run flags that take a value.
var dockerValueFlags = map[string]bool{
	"-e": true, "--env": true, "-p": true, "--publish": true, "-v": true, "--volume": true, "--mount": true,
	"--name": true, "-w": true, "--workdir": true, "--network": true, "--net": true, "--env-file": true,
	"-u": true, "--user": true, "--entrypoint": true, "--platform": true, "-l": true, "--label": true,
	"-h": true, "--hostname": true, "--add-host": true, "--pull": true, "--memory": true, "-m": true, "--cpus": true,
}

// publishedImage matches an image on a public registry: ghcr.io/o/r, docker.io/o/r,
// quay.io/o/r, registry.gitlab.com/..., public.ecr.aws/....
var publishedImage = lazyre.New(`\b((?:ghcr\.io|docker\.io|quay\.io|registry\.gitlab\.com|public\.ecr\.aws|mcr\.microsoft\.com)/[a-z0-9][a-z0-9._/-]*[a-z0-9](?::[A-Za-z0-9._-]+)?)`)

// containerStep runs when nothing else found a server and the folder has a
// Dockerfile: it looks for the image's published name in the README and docs.
func (r *run) containerStep(ctx context.Context) ([]group, error) {
	dir := strings.Trim(r.in.Subdir, "/")
	dockerfile := ""
	for _, p := range r.repo.find(func(p string) bool { return path.Dir(p) == firstNonEmpty(dir, ".") }) {
		if b := strings.ToLower(path.Base(p)); b == "dockerfile" || b == "containerfile" || strings.HasPrefix(b, "dockerfile.") {
			dockerfile = p
			break
		}
	}
	if dockerfile == "" {
		return nil, nil
	}
	name := r.defaultName()
	files := []string{}
	if rp := r.repo.readmeIn(dir); rp != "" {
		files = append(files, rp)
	}
	files = append(files, r.repo.find(func(p string) bool {
		lp := strings.ToLower(p)
		return strings.HasPrefix(p, path.Join(dir, "docs")+"/") && strings.HasSuffix(lp, ".md")
	})...)
	if len(files) > 1+maxDocs {
		files = files[:1+maxDocs]
	}
	var cands []Candidate
	var seen []string
	built := map[string]string{} // image → where the README builds it
	for _, p := range files {
		text, err := r.readFile(ctx, p)
		if err != nil {
			return nil, err
		}
		found, notes := imagesIn(text, built)
		for _, n := range notes {
			seen = append(seen, n+" ("+p+")")
		}
		for _, f := range found {
			srv := canonical.Server{Name: name, Transport: canonical.Stdio, Command: "docker", Args: f.args}
			c := snippetCandidate(srv, StepContainer, r.opts.Inputs)
			c.Runner, c.ID = "docker", name+":docker"
			c.Line, c.Source = f.line, r.repo.webURL(p)+"#L"+strconv.Itoa(f.line)
			c.Note = f.how
			cands = append(cands, c)
		}
	}
	cands = dedupe(cands)
	if len(cands) == 0 {
		detail := dockerfile + " builds an image, but no README or docs file names a published one"
		if len(seen) > 0 {
			detail += ": " + strings.Join(seen, "; ")
		}
		r.note(StepContainer, r.repo.webURL(dockerfile), false, "%s", detail)
		ctxDir := r.in.RepoURL() + ".git"
		if dir != "" {
			ctxDir += "#" + r.repo.ref + ":" + dir
		}
		r.advice = fmt.Sprintf("build the image yourself (docker build -t %s %s) and add it with mcpsync add oci:%s, "+
			"or add the server by hand (mcpsync add NAME -- docker run -i --rm IMAGE)", name, ctxDir, name)
		return nil, nil
	}
	for i := range cands {
		if i > 0 {
			cands[i].ID += "@" + strconv.Itoa(cands[i].Line)
		}
	}
	r.note(StepContainer, cands[0].Source, true, "%s; %s names the image: %s", dockerfile, cands[0].Note, CommandLine(cands[0].Server))
	return []group{{id: name, name: name, source: cands[0].Source, cands: cands}}, nil
}

type imageUse struct {
	args []string
	line int
	how  string
}

// imagesIn finds the published images a Markdown text runs or names, in
// order: docker run lines (their -e variables and arguments kept, made
// stdio: -i --rm, no -d, no ports), docker pull lines, then registry paths
// mentioned anywhere. Images the text builds itself are left out, with a note.
func imagesIn(text []byte, built map[string]string) ([]imageUse, []string) {
	var out []imageUse
	var notes []string
	lines := strings.Split(string(text), "\n")
	for i, l := range lines {
		words := strings.Fields(strings.NewReplacer("`", " ", "$ ", " ").Replace(l))
		for j := 0; j+2 < len(words); j++ {
			if words[j] != "docker" && words[j] != "podman" {
				continue
			}
			switch words[j+1] {
			case "build":
				for k := j + 2; k+1 < len(words); k++ {
					if words[k] == "-t" || words[k] == "--tag" {
						built[imageName(words[k+1])] = "line " + strconv.Itoa(i+1)
					}
				}
			case "pull":
				img := words[len(words)-1]
				if isImage(img) {
					out = append(out, imageUse{args: []string{"run", "-i", "--rm", img}, line: i + 1, how: "docker pull " + img})
				}
			case "run":
				u, why := dockerRunLine(words[j+2:])
				u.line = i + 1
				switch {
				case why != "":
					notes = append(notes, fmt.Sprintf("line %d: %s", i+1, why))
				case built[imageName(u.args[len(u.args)-1-u.after])] != "":
					img := u.args[len(u.args)-1-u.after]
					notes = append(notes, fmt.Sprintf("line %d runs %s, which the README builds itself (%s): it is not published", i+1, img, built[imageName(img)]))
				default:
					out = append(out, imageUse{args: u.args, line: u.line, how: "docker run at line " + strconv.Itoa(i+1)})
				}
			}
		}
	}
	for i, l := range lines {
		for _, m := range publishedImage.Get().FindAllString(l, -1) {
			if strings.HasSuffix(m, ".git") || strings.Count(m, "/") < 2 {
				continue
			}
			out = append(out, imageUse{args: []string{"run", "-i", "--rm", m}, line: i + 1, how: "the image " + m + " named at line " + strconv.Itoa(i+1)})
		}
	}
	return out, notes
}

// dockerRun is one docker run line made into stdio arguments; after is how
// many arguments follow the image.
type dockerRun struct {
	args  []string
	line  int
	after int
}

// dockerRunLine reads the words after "docker run": it keeps -e/--env
// (the variables the server needs) and the arguments after the image, adds
// -i --rm, and drops what a client-started stdio server must not have.
func dockerRunLine(words []string) (dockerRun, string) {
	args := []string{"run", "-i", "--rm"}
	for k := 0; k < len(words); k++ {
		w := words[k]
		switch {
		case w == "\\" || w == "|" || w == "&&" || w == ";":
			return dockerRun{}, "an incomplete docker run line"
		case w == "-d" || w == "--detach":
			return dockerRun{}, "docker run -d starts a background service, not a stdio server"
		case w == "-e" || w == "--env":
			if k+1 < len(words) {
				args = append(args, "-e", words[k+1])
				k++
			}
		case strings.HasPrefix(w, "--env="):
			args = append(args, "-e", strings.TrimPrefix(w, "--env="))
		case w == "-v" || w == "--volume" || w == "--mount":
			if k+1 < len(words) {
				args = append(args, w, words[k+1])
				k++
			}
		case dockerValueFlags[w]:
			k++ // a port, a name: not for a stdio server
		case strings.HasPrefix(w, "-"):
			// -i, -t, --rm, -it and --flag=value forms
		default:
			if !isImage(w) {
				return dockerRun{}, "docker run names no image"
			}
			rest := words[k+1:]
			for n, a := range rest {
				if a == "\\" || a == "|" || a == "&&" || a == ";" || strings.HasPrefix(a, "#") {
					rest = rest[:n]
					break
				}
			}
			return dockerRun{args: append(append(args, w), rest...), after: len(rest)}, ""
		}
	}
	return dockerRun{}, "docker run names no image"
}

var imageWord = lazyre.New(`^[a-z0-9][a-z0-9._/-]*(:[A-Za-z0-9._-]+)?(@sha256:[0-9a-f]{64})?$`)

func isImage(w string) bool {
	return imageWord.Get().MatchString(w) && !strings.HasSuffix(w, ".") && w != "image" && !strings.HasPrefix(w, "<")
}

// imageName is an image without its tag, for comparing names.
func imageName(img string) string {
	if i := strings.LastIndexByte(img, ':'); i > strings.LastIndexByte(img, '/') {
		img = img[:i]
	}
	return strings.TrimPrefix(img, "docker.io/")
}
