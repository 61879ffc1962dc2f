// The shims are inline functions in include/CSystemShims.h; this file gives the target a source.
#include "CSystemShims.h"
