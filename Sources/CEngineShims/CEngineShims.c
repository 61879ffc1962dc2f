// The shims are inline functions in include/CEngineShims.h; this file gives the target a source.
#include "CEngineShims.h"
