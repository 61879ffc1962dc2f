// mktemp(3) for the statically linked release binary.
//
// Foundation's static library names temporary files with mktemp(3), and glibc marks mktemp so
// that every link referring to it prints "warning: the use of `mktemp' is dangerous". The
// release link of `taskgraph` (Package.swift) redirects those calls here with
// `-Xlinker --wrap=mktemp`. Same contract as glibc's mktemp: `template` ends in XXXXXX, which is
// replaced to name a file that did not exist; on failure the template becomes "". The name comes
// from mkstemp, whose file is removed again; the caller opens the name exclusively, as it must
// with mktemp's names anyway.
#include <stdlib.h>
#include <unistd.h>

char *__wrap_mktemp(char *template) {
    int descriptor = mkstemp(template);
    if (descriptor < 0) {
        template[0] = '\0';
        return template;
    }
    close(descriptor);
    unlink(template);
    return template;
}
