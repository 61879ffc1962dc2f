// The libcurl API, for the CCurl system-library module.
#include <curl/curl.h>
