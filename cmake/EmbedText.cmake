# Run at build time (cmake -P, from lib/Report/CMakeLists.txt): writes
# OUTPUT, a C++ fragment defining `static const char NAME[]` as the bytes
# of INPUT, so that a page's script and style can live in files of their
# own and still be compiled into the library (the HTML page is one
# offline file). The text goes in as raw string literals of a few
# thousand bytes each; INPUT must not contain `)embed"`.
file(READ ${INPUT} text)
if(text MATCHES "\\)embed\"")
  message(FATAL_ERROR "${INPUT} contains the delimiter )embed\"")
endif()
string(LENGTH "${text}" length)
set(out "// Generated from ${INPUT} by cmake/EmbedText.cmake: do not edit.\n")
string(APPEND out "static const char ${NAME}[] =\n")
set(position 0)
while(position LESS length)
  string(SUBSTRING "${text}" ${position} 4000 chunk)
  string(APPEND out "R\"embed(${chunk})embed\"\n")
  math(EXPR position "${position} + 4000")
endwhile()
string(APPEND out "\"\";\n")
if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} old)
endif()
if(NOT old STREQUAL out)
  file(WRITE ${OUTPUT} "${out}")
endif()
