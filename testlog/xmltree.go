package testlog

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// xmlNode is an element of a small document tree (the element tree the
// Python readers build with xml.etree.ElementTree): name, attributes and
// child elements; text is not kept.
type xmlNode struct {
	Name     string
	Attr     map[string]string
	Children []*xmlNode
}

// get is ElementTree's Element.get: the attribute's value, ok false when
// absent.
func (n *xmlNode) get(name string) (string, bool) {
	v, ok := n.Attr[name]
	return v, ok
}

// findAll is ElementTree's findall(".//name"): the descendants called
// name, in document order.
func (n *xmlNode) findAll(name string) []*xmlNode {
	var out []*xmlNode
	var walk func(*xmlNode)
	walk = func(e *xmlNode) {
		for _, c := range e.Children {
			if c.Name == name {
				out = append(out, c)
			}
			walk(c)
		}
	}
	walk(n)
	return out
}

// parseXMLTree parses one XML document into a tree, as ElementTree's
// fromstring does: an error for malformed XML, for no element, and for
// anything but white space, comments and processing instructions after the
// root element. Attribute values have their white space characters (tab,
// newline, carriage return) turned into spaces, as an XML processor
// normalizes them.
func parseXMLTree(doc string) (*xmlNode, error) {
	d := xml.NewDecoder(strings.NewReader(doc))
	var root *xmlNode
	var stack []*xmlNode
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if root != nil && len(stack) == 0 {
				return nil, fmt.Errorf("junk after document element: <%s>", t.Name.Local)
			}
			n := &xmlNode{Name: t.Name.Local, Attr: make(map[string]string, len(t.Attr))}
			for _, a := range t.Attr {
				n.Attr[a.Name.Local] = strings.Map(func(r rune) rune {
					if r == '\t' || r == '\n' || r == '\r' {
						return ' '
					}
					return r
				}, a.Value)
			}
			if len(stack) > 0 {
				p := stack[len(stack)-1]
				p.Children = append(p.Children, n)
			} else {
				root = n
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) == 0 && strings.TrimSpace(string(t)) != "" {
				if root == nil {
					return nil, errors.New("syntax error: text before the document element")
				}
				return nil, errors.New("junk after document element")
			}
		}
	}
	if root == nil {
		return nil, errors.New("no element found")
	}
	if len(stack) > 0 {
		return nil, errors.New("no element found: unclosed element")
	}
	return root, nil
}
