// The libcurl API's declarations, for the CCurl system-library module. Nothing links libcurl:
// CCurlShim opens it on first use.
#include <curl/curl.h>
