//go:build nghttp2

/*
 * An nghttp2_mem allocator that counts the bytes held as malloc reports
 * their usable size (malloc's rounding included, as Go's heap figures
 * include its size classes), for bench's memory per connection: the
 * deflaters of Conns and the inflaters InflateBatch.HeldBytes measures.
 */
#ifndef HPACKCERT_USABLEMEM_H
#define HPACKCERT_USABLEMEM_H

#include <stdint.h>

#include <nghttp2/nghttp2.h>

/* usablemem_init points mem's hooks at this allocator, which adds what it
   hands out to *live and subtracts what it takes back. */
void usablemem_init(nghttp2_mem *mem, int64_t *live);

#endif
