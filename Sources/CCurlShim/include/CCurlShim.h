// libcurl for Swift: opened on first use (see tg_curl_load), and typed, non-variadic wrappers
// around its variadic calls, which Swift cannot call.
#ifndef CCURLSHIM_H
#define CCURLSHIM_H

#include <curl/curl.h>

/// Opens libcurl (libcurl.so.4) and runs curl_global_init, once per process; every later call
/// returns what the first did. Call it before any other tg_curl_ function, which may be called
/// only once it has succeeded.
/// - Returns: NULL once libcurl is ready, otherwise why it could not be loaded.
const char *tg_curl_load(void);

CURL *tg_curl_easy_init(void);
void tg_curl_easy_cleanup(CURL *handle);
const char *tg_curl_easy_strerror(CURLcode code);
CURLHcode tg_curl_easy_header(
    CURL *handle, const char *name, size_t index, unsigned int origin, int request, struct curl_header **header);
CURLM *tg_curl_multi_init(void);
CURLMcode tg_curl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode tg_curl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode tg_curl_multi_cleanup(CURLM *multi);
CURLMcode tg_curl_multi_perform(CURLM *multi, int *running);
CURLMcode tg_curl_multi_poll(
    CURLM *multi, struct curl_waitfd extra[], unsigned int extraCount, int timeoutMilliseconds, int *ready);
CURLMsg *tg_curl_multi_info_read(CURLM *multi, int *queued);
const char *tg_curl_multi_strerror(CURLMcode code);
struct curl_slist *tg_curl_slist_append(struct curl_slist *list, const char *text);
void tg_curl_slist_free_all(struct curl_slist *list);

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
