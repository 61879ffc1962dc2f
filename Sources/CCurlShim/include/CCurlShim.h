// Typed, non-variadic wrappers around libcurl's variadic calls, which Swift cannot call.
#ifndef CCURLSHIM_H
#define CCURLSHIM_H

#include <curl/curl.h>

/// Sets an option whose value is a `long`.
CURLcode tg_curl_setopt_long(CURL *handle, CURLoption option, long value);
/// Sets an option whose value is a `curl_off_t`.
CURLcode tg_curl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);
/// Sets an option whose value is a C string (curl copies it) or another pointer.
CURLcode tg_curl_setopt_pointer(CURL *handle, CURLoption option, const void *value);
/// Sets CURLOPT_WRITEFUNCTION.
CURLcode tg_curl_setopt_write_function(CURL *handle, curl_write_callback function);
/// Reads a `long` piece of information, such as CURLINFO_RESPONSE_CODE.
CURLcode tg_curl_getinfo_long(CURL *handle, CURLINFO info, long *value);
/// Reads a `curl_off_t` piece of information, such as CURLINFO_CONTENT_LENGTH_DOWNLOAD_T.
CURLcode tg_curl_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value);

#endif
