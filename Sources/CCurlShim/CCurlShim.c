#include "CCurlShim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// libcurl is opened with dlopen the first time a transfer starts instead of being linked: a
// linked libcurl makes the dynamic loader map and relocate it and the thirty-odd libraries it
// needs (TLS, Kerberos, LDAP, IDN, ...) at every start of taskgraph, about 10 ms, even for
// `taskgraph --version` or `validate`.
static struct {
    __typeof__(&curl_global_init) global_init;
    __typeof__(&curl_easy_init) easy_init;
    __typeof__(&curl_easy_cleanup) easy_cleanup;
    __typeof__(&curl_easy_strerror) easy_strerror;
    __typeof__(&curl_easy_header) easy_header;
    __typeof__(&curl_easy_setopt) easy_setopt;
    __typeof__(&curl_easy_getinfo) easy_getinfo;
    __typeof__(&curl_multi_init) multi_init;
    __typeof__(&curl_multi_add_handle) multi_add_handle;
    __typeof__(&curl_multi_remove_handle) multi_remove_handle;
    __typeof__(&curl_multi_cleanup) multi_cleanup;
    __typeof__(&curl_multi_perform) multi_perform;
    __typeof__(&curl_multi_poll) multi_poll;
    __typeof__(&curl_multi_info_read) multi_info_read;
    __typeof__(&curl_multi_strerror) multi_strerror;
    __typeof__(&curl_slist_append) slist_append;
    __typeof__(&curl_slist_free_all) slist_free_all;
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const char *load_failure;
static char load_failure_text[512];

static int resolve(void *library, const char *name, void **function) {
    *function = dlsym(library, name);
    if (*function) return 1;
    snprintf(load_failure_text, sizeof load_failure_text, "libcurl.so.4 has no %s", name);
    load_failure = load_failure_text;
    return 0;
}

#define RESOLVE(field) resolve(library, "curl_" #field, (void **)&curl.field)

static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(load_failure_text, sizeof load_failure_text, "cannot load libcurl: %s", dlerror());
        load_failure = load_failure_text;
        return;
    }
    if (!(RESOLVE(global_init) && RESOLVE(easy_init) && RESOLVE(easy_cleanup) && RESOLVE(easy_strerror)
            && RESOLVE(easy_header) && RESOLVE(easy_setopt) && RESOLVE(easy_getinfo) && RESOLVE(multi_init)
            && RESOLVE(multi_add_handle) && RESOLVE(multi_remove_handle) && RESOLVE(multi_cleanup)
            && RESOLVE(multi_perform) && RESOLVE(multi_poll) && RESOLVE(multi_info_read) && RESOLVE(multi_strerror)
            && RESOLVE(slist_append) && RESOLVE(slist_free_all)))
        return;
    CURLcode code = curl.global_init(CURL_GLOBAL_DEFAULT);
    if (code != CURLE_OK) {
        snprintf(load_failure_text, sizeof load_failure_text, "curl_global_init failed: %s", curl.easy_strerror(code));
        load_failure = load_failure_text;
    }
}

const char *tg_curl_load(void) {
    pthread_once(&load_once, load);
    return load_failure;
}

CURL *tg_curl_easy_init(void) { return curl.easy_init(); }

void tg_curl_easy_cleanup(CURL *handle) { curl.easy_cleanup(handle); }

const char *tg_curl_easy_strerror(CURLcode code) { return curl.easy_strerror(code); }

CURLHcode tg_curl_easy_header(
    CURL *handle, const char *name, size_t index, unsigned int origin, int request, struct curl_header **header) {
    return curl.easy_header(handle, name, index, origin, request, header);
}

CURLM *tg_curl_multi_init(void) { return curl.multi_init(); }

CURLMcode tg_curl_multi_add_handle(CURLM *multi, CURL *handle) { return curl.multi_add_handle(multi, handle); }

CURLMcode tg_curl_multi_remove_handle(CURLM *multi, CURL *handle) { return curl.multi_remove_handle(multi, handle); }

CURLMcode tg_curl_multi_cleanup(CURLM *multi) { return curl.multi_cleanup(multi); }

CURLMcode tg_curl_multi_perform(CURLM *multi, int *running) { return curl.multi_perform(multi, running); }

CURLMcode tg_curl_multi_poll(
    CURLM *multi, struct curl_waitfd extra[], unsigned int extraCount, int timeoutMilliseconds, int *ready) {
    return curl.multi_poll(multi, extra, extraCount, timeoutMilliseconds, ready);
}

CURLMsg *tg_curl_multi_info_read(CURLM *multi, int *queued) { return curl.multi_info_read(multi, queued); }

const char *tg_curl_multi_strerror(CURLMcode code) { return curl.multi_strerror(code); }

struct curl_slist *tg_curl_slist_append(struct curl_slist *list, const char *text) {
    return curl.slist_append(list, text);
}

void tg_curl_slist_free_all(struct curl_slist *list) { curl.slist_free_all(list); }

CURLcode tg_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode tg_curl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode tg_curl_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode tg_curl_setopt_write_function(CURL *handle, curl_write_callback function) {
    return curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, function);
}

CURLcode tg_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl.easy_getinfo(handle, info, value);
}

CURLcode tg_curl_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl.easy_getinfo(handle, info, value);
}
