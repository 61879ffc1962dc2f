// libjpeg-turbo's API. jpeglib.h needs stdio.h (FILE) and size_t first.
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>
