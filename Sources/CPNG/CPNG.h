// libpng's API (the simplified png_image_* functions are the ones taskgraph uses).
#include <png.h>
