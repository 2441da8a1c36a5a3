package testlog

import (
	"reflect"
	"runtime"
)

func runtimeFuncName(f any) string { return runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name() }
