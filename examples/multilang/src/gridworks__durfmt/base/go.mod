module github.com/gridworks/durfmt

go 1.19
