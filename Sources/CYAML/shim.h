// libyaml, the system's YAML 1.1 parser (Debian: libyaml-dev).
#include <yaml.h>
